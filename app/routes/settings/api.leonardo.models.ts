import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { providerFailure } from "~/core/error-log.server";
import { userProviders, type ImageModel } from "~/server/providers.server";

// GET /api/leonardo/models: the image service's models in its three groups, or the offline styles without a key.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const { image } = await userProviders(userId);
  try {
    const models = await image.listModels();
    const group = (name: ImageModel["group"]) => models.filter((m) => m.group === name).map(({ id, name, description }) => ({ id, name, description }));
    return Response.json(
      {
        custom_models: group("custom_models"),
        featured_models: group("featured_models"),
        core_models: group("core_models"),
        source: image.source,
        provider: image.name,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (e) {
    return providerFailure({ userId, error: e, type: "model_list", what: "load image models", keyName: "Leonardo API key" });
  }
}
