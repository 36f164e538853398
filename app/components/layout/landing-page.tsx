// The signed-out landing page: header with the custom logo or the product name, hero,
// three feature cards, four benefits, a closing call to action and two sign-in buttons. No Sign Out: whoever
// sees this page is signed out (docs/decisions/080). A visit to a signed-in page that led here says why.
import { CheckCircle2, Clapperboard, FileText, Image as ImageIcon, Mic } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useSearchParams } from "@remix-run/react";
import { LogIn } from "lucide-react";

const features = [
  { icon: FileText, title: "AI Script Generation", text: "A title and a topic become a complete, proofread script of the length you choose." },
  { icon: ImageIcon, title: "Visual Storytelling", text: "Every scene gets an AI-generated image that matches what is being said." },
  { icon: Mic, title: "Professional Voiceovers", text: "Natural AI voiceovers narrate each scene, timed to the picture." },
];

const benefits = [
  { title: "Save Hours of Work", text: "From idea to finished video in minutes, not days." },
  { title: "Professional Quality", text: "HD rendering with smooth motion, captions and background music." },
  { title: "Perfect for Any Platform", text: "Landscape for YouTube, vertical for Shorts and TikTok." },
  { title: "Easy to Use", text: "A guided pipeline: script, storyboard, music, render, upload." },
];

export function LandingPage({ logoUrl }: { logoUrl: string | null }) {
  return (
    <div className="min-h-screen">
      <header className="flex items-center justify-between border-b border-slate-800 px-6 py-4">
        {logoUrl ? (
          <img src={logoUrl} alt="Reelsmith" className="h-9 max-w-[12rem] object-contain" />
        ) : (
          <span className="flex items-center gap-2 text-lg font-bold">
            <Clapperboard className="h-6 w-6 text-brand" aria-hidden /> Reelsmith
          </span>
        )}
      </header>
      <main>
        <SignedOutReason />
        <section className="mx-auto max-w-4xl px-6 py-20 text-center">
          <h1 className="text-4xl font-extrabold sm:text-5xl">Create videos with AI, from a title to YouTube</h1>
          <p className="mt-6 text-lg text-slate-300">
            Describe your video; Reelsmith writes the script, draws the scenes, records the voiceover, renders the video and
            uploads it, optimised for video and social platforms.
          </p>
          <Button asChild size="lg" className="mt-10">
            <a href="/api/login">Get Started</a>
          </Button>
        </section>
        <section className="mx-auto grid max-w-5xl gap-6 px-6 md:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <article key={title} className="rounded-xl border border-slate-800 bg-slate-900 p-6">
              <Icon className="h-8 w-8 text-brand" aria-hidden />
              <h2 className="mt-4 text-xl font-semibold">{title}</h2>
              <p className="mt-2 text-slate-400">{text}</p>
            </article>
          ))}
        </section>
        <section className="mx-auto mt-16 max-w-5xl px-6">
          <h2 className="text-center text-2xl font-bold">Why creators use Reelsmith</h2>
          <div className="mt-8 grid gap-6 sm:grid-cols-2">
            {benefits.map(({ title, text }) => (
              <div key={title} className="flex gap-3">
                <CheckCircle2 className="mt-1 h-5 w-5 shrink-0 text-brand" aria-hidden />
                <div>
                  <h3 className="text-lg font-semibold">{title}</h3>
                  <p className="text-slate-400">{text}</p>
                </div>
              </div>
            ))}
          </div>
        </section>
        <section className="mx-auto my-20 max-w-3xl rounded-2xl bg-brand/20 px-6 py-12 text-center">
          <h2 className="text-3xl font-bold">Ready to make your first video?</h2>
          <p className="mt-3 text-slate-300">Sign in and turn your next idea into a video today.</p>
          <Button asChild size="lg" className="mt-8">
            <a href="/api/login">Sign In to Start Creating</a>
          </Button>
        </section>
      </main>
    </div>
  );
}

/** The page names a signed-out visitor may have asked for (`/?from=/render`); anything else is not shown. */
const PAGE_NAMES: Record<string, string> = {
  dashboard: "the dashboard",
  create: "Create New Video",
  script: "the script",
  storyboard: "the storyboard",
  music: "the music",
  render: "Render",
  upload: "Upload",
  thumbnail: "the thumbnail",
  subscription: "your subscription",
  settings: "Settings",
  projects: "the project",
};

export function signedOutReason(from: string | null): string | null {
  const page = from?.match(/^\/([a-z]+)(\/|$)/)?.[1];
  if (!page || !Object.hasOwn(PAGE_NAMES, page)) return null;
  return `Sign in to open ${PAGE_NAMES[page]}: you are signed out, or your session has ended.`;
}

function SignedOutReason() {
  const [params] = useSearchParams();
  const reason = signedOutReason(params.get("from"));
  if (!reason) return null;
  return (
    <div className="px-6">
      <div role="status" data-testid="signed-out-reason" className="mx-auto mt-6 flex max-w-4xl flex-wrap items-center justify-between gap-3 rounded-xl border border-brand/60 bg-brand/10 px-5 py-3">
        <p className="text-sm text-slate-100">{reason}</p>
        <Button asChild size="sm">
          <a href="/api/login">
            <LogIn className="h-4 w-4" aria-hidden /> Sign In
          </a>
        </Button>
      </div>
    </div>
  );
}
