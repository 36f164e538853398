// With billing on, a free account is refused the upload on the server, with a message pointing to /subscription,
// before anything reaches YouTube.
import "../support/billing-on";
import { fake } from "../support/youtube-fake";
import { afterAll, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { action as uploadRoute } from "~/routes/publish/api.youtube.upload";
import { APP, connectYoutube, saveOAuthClient, seedRenderedProject } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

afterAll(async () => {
  await fake.stop();
  await prisma.$disconnect();
});

it("refuses a free account's upload with the way to upgrade", async () => {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  await saveOAuthClient(user.id);
  await connectYoutube(cookie);
  const { video } = await seedRenderedProject(user.id, { videoBytes: 1000 });
  const response = await callRoute(
    uploadRoute,
    new Request(`${APP}/api/youtube/upload`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ videoPath: video.videoUrl, title: "Not for free", categoryId: "22", privacyStatus: "public", tags: [], description: "" }),
    }),
  );
  expect(response.status).toBe(402);
  expect(((await response.json()) as { message: string }).message).toMatch(/Premium feature.*\/subscription/);
  expect(fake.requestsTo(/^\/upload\//).length).toBe(0);
  expect(await prisma.youtubeUpload.count()).toBe(0);
});
