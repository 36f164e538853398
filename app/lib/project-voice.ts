// A project's narration settings (issue 24): language, voice and speed, as /create sends them and the project
// voice call changes them. Kept apart from the spec's video details (title, topic, format, duration), whose
// shape the browser storage and /api/generate-script keep.
import { z } from "zod";
import { DEFAULT_LANGUAGE, LanguageSchema } from "./languages";
import { parseEspeakVoice, isEspeakVoice } from "./voices";
import { VOICE_SPEED, VoiceSpeedSchema } from "./voice-speed";

/** A voice id: a provider's id (letters, digits and - _ : + .), or empty for the language's default voice. */
export const VoiceIdSchema = z
  .string({ message: "Voice must be a voice id." })
  .trim()
  .max(200, "Voice must be at most 200 characters.")
  .refine((id) => id === "" || /^[\w:+.-]+$/.test(id), { message: "Voice must be a voice id from the voice list." })
  .refine((id) => !isEspeakVoice(id) || parseEspeakVoice(id) !== null, { message: "Voice must be a voice id from the voice list." })
  .transform((id) => id || null);

export const ProjectVoiceSchema = z.object({
  language: LanguageSchema.default(DEFAULT_LANGUAGE),
  voiceId: VoiceIdSchema.nullish().transform((id) => id ?? null),
  voiceSpeed: VoiceSpeedSchema.default(VOICE_SPEED.default),
});
export type ProjectVoice = z.infer<typeof ProjectVoiceSchema>;

/** A change to some of them: absent fields stay as they are; voiceId null goes back to the language's default. */
export const ProjectVoiceUpdateSchema = z
  .object({ language: LanguageSchema.optional(), voiceId: VoiceIdSchema.nullable().optional(), voiceSpeed: VoiceSpeedSchema.optional() })
  .strict();
export type ProjectVoiceUpdate = z.infer<typeof ProjectVoiceUpdateSchema>;
