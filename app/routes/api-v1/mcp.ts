import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { handleMcpRequest } from "~/server/mcp.server";
import { toProblem } from "~/server/problem.server";

// /mcp: Reelsmith's MCP server (Streamable HTTP, stateless, JSON answers), for an API token (or the session).
// POST a JSON-RPC message; GET (a server-sent stream) and DELETE (a session) are not offered: 405.
export function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"], "This MCP server is stateless: POST JSON-RPC messages to /mcp.");
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "This MCP server is stateless: POST JSON-RPC messages to /mcp.");
  try {
    const caller = await requireApiCaller(request);
    return await handleMcpRequest(request, caller);
  } catch (thrown) {
    return toProblem(thrown);
  }
}
