// The owner adds a neural voice (issue 48, decision 210): a Piper voice's .onnx model and its .onnx.json config, with
// the licence its voice card states. The model goes to media storage as it is sent, and every worker finds the voice
// there; it appears in every voice picker, its licence beside it, and becomes its language's offline default.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { VOICE_LICENCE_MAX_CHARS, VOICE_UPLOAD_MAX_BYTES, VOICE_UPLOAD_PATH } from "~/lib/voice-upload";

const fileInputClass = "text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-3 file:py-2 file:text-slate-100";

type Uploaded = { voice: { id: string; name: string; bytes: number } };

export function VoiceUploadCard() {
  const queryClient = useQueryClient();
  const modelInput = useRef<HTMLInputElement>(null);
  const configInput = useRef<HTMLInputElement>(null);
  const [licence, setLicence] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const upload = useMutation({
    mutationFn: async () => {
      const model = modelInput.current?.files?.[0];
      const config = configInput.current?.files?.[0];
      if (!model || !config) throw new Error("Choose the voice's .onnx model and its .onnx.json config.");
      if (model.size > VOICE_UPLOAD_MAX_BYTES) throw new Error(`The model is ${(model.size / 1024 / 1024).toFixed(0)} MB: at most ${VOICE_UPLOAD_MAX_BYTES / 1024 / 1024} MB.`);
      // the licence and config before the model: the server checks them before it stores the model
      const form = new FormData();
      form.append("licence", licence);
      form.append("config", await config.text());
      form.append("model", model);
      return apiRequest<Uploaded>("POST", VOICE_UPLOAD_PATH, form);
    },
    onMutate: () => setProblem(null),
    onSuccess: ({ voice }) => {
      void queryClient.invalidateQueries({ queryKey: ["voices"] });
      toast({ title: "Voice Added", description: `${voice.name} is in every voice picker, with its licence.` });
      for (const input of [modelInput.current, configInput.current]) if (input) input.value = "";
      setLicence("");
    },
    onError: (error) => setProblem(serverMessage(error)),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Upload className="h-5 w-5 text-brand" aria-hidden /> Add a Neural Voice
        </CardTitle>
        <CardDescription>
          Upload a Piper voice (its .onnx model and .onnx.json config, up to {VOICE_UPLOAD_MAX_BYTES / 1024 / 1024} MB) with the licence its
          voice card states. It speaks offline on every worker, is shown with its licence in the voice pickers, and becomes the offline default
          for its language. A voice of the same name is replaced.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor="voice-upload-model">Voice model (.onnx)</Label>
          <input id="voice-upload-model" ref={modelInput} type="file" accept=".onnx" className={fileInputClass} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="voice-upload-config">Voice config (.onnx.json)</Label>
          <input id="voice-upload-config" ref={configInput} type="file" accept=".json,application/json" className={fileInputClass} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="voice-upload-licence">Licence</Label>
          <Textarea
            id="voice-upload-licence"
            value={licence}
            maxLength={VOICE_LICENCE_MAX_CHARS}
            onChange={(e) => setLicence(e.target.value)}
            placeholder="For example: Voice data CC0 (its dataset), model MIT."
            rows={2}
          />
        </div>
        {problem ? (
          <p role="alert" className="text-sm text-red-400">
            {problem}
          </p>
        ) : null}
        <Button className="justify-self-start" disabled={upload.isPending || !licence.trim()} onClick={() => upload.mutate()}>
          {upload.isPending ? "Uploading..." : "Add Voice"}
        </Button>
      </CardContent>
    </Card>
  );
}
