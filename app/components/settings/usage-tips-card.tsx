import { Lightbulb } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

const TIPS = [
  "For cloud quality you need both a Google AI (Gemini) API key for the script and an ElevenLabs key for the voiceovers; without them Reelsmith's offline generators are used.",
  "Your keys are stored encrypted (AES-256-GCM) and are never shown again, not even to you: only their length is used for the masked field.",
  "Cost varies with the script length (longer videos need more text and more scenes) and with the voice quality you choose.",
  "Leonardo images and Suno music are optional: scene images and background music are made offline when those keys are missing.",
];

export function UsageTipsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Lightbulb className="h-5 w-5 text-yellow-400" aria-hidden /> Usage &amp; Tips
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="list-disc space-y-2 pl-5 text-sm text-slate-300">
          {TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
        <p className="mt-4 text-xs text-slate-400" aria-label="Credits">
          About the offline scene illustrations: pictures from{" "}
          <a className="underline" href="https://github.com/microsoft/fluentui-emoji" target="_blank" rel="noreferrer">
            Fluent Emoji
          </a>{" "}
          by Microsoft (MIT licence), matched to the narration with the keywords of{" "}
          <a className="underline" href="https://github.com/muan/emojilib" target="_blank" rel="noreferrer">
            emojilib
          </a>{" "}
          (MIT licence).
        </p>
      </CardContent>
    </Card>
  );
}
