// The image source per project through the real route: remembered per project, Leonardo only with a key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as putImageSource, loader as getImageSource } from "~/routes/storyboard/api.image-source";
import { prisma } from "~/core/db.server";
import { seedRenderableProject } from "../fixtures/render-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";

const base = "http://localhost:3000";
let cookie: string;
let projectId: string;

const put = (body: unknown) =>
  call(putImageSource, new Request(`${base}/api/image-source`, { method: "PUT", headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" }, body: JSON.stringify(body) }));

beforeAll(async () => {
  const user = await createTestUser(undefined, "Source Chooser");
  cookie = await sessionCookieFor(user.id);
  projectId = (await seedRenderableProject({ userId: user.id, sceneSeconds: [1] })).projectId;
});
afterAll(async () => {
  await prisma.$disconnect();
});

describe("image source per project", () => {
  it("defaults to offline illustrations without a Leonardo key, and refuses Leonardo until one is saved", async () => {
    const initial = await (await call(getImageSource, new Request(`${base}/api/image-source`, { headers: { Cookie: cookie } }))).json();
    expect(initial).toEqual({ imageSource: null, effective: "offline", leonardoKeySaved: false, pexelsKeySaved: false });
    const refused = await put({ imageSource: "leonardo" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "Leonardo needs your Leonardo API key: save it in Settings first.", field: "imageSource" });
    const bad = await put({ imageSource: "crayons" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).field).toBe("imageSource");
  });

  it("remembers the choice on the project", async () => {
    const saved = await put({ imageSource: "offline" });
    expect(await saved.json()).toEqual({ imageSource: "offline", effective: "offline", leonardoKeySaved: false, pexelsKeySaved: false });
    expect((await prisma.project.findUniqueOrThrow({ where: { id: projectId } })).imageSource).toBe("offline");
  });
});
