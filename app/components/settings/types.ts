// Shapes of the settings calls' answers, as the browser reads them.
export type { PublicConfig } from "~/core/settings.server";
export type { ErrorLogEntry } from "~/core/error-log.server";
export type { CleanupResult } from "~/server/cleanup.server";
import type { ProviderSource, Voice, VoiceCategory } from "~/providers/types";

export type { Voice, VoiceCategory };
export type VoicesResponse = { voices: Voice[]; source: ProviderSource; provider: string };
export type DefaultVoicesResponse = { voices: string[]; source: ProviderSource };

export type ModelSummary = { id: string; name: string; description: string };
export type ModelsResponse = {
  custom_models: ModelSummary[];
  featured_models: ModelSummary[];
  core_models: ModelSummary[];
  source: ProviderSource;
  provider: string;
};
