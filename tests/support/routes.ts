// Calls a Remix loader or action directly, the way the server would. A guard's thrown Response
// (401, 403, a redirect) is the answer too, so tests read both the same way.
export async function callRoute(
  fn: (args: never) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  try {
    return (await fn({ request, params, context: {} } as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
