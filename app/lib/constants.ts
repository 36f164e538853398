// The spec's business constants, named as the spec names them. Import them; never repeat the numbers.

export const POLLING_MS = {
  headerScriptStatus: 2000,
  scriptPage: 3000,
  storyboardStatus: 3000,
  storyboards: 5000,
  musicTracks: 5000,
  latestVideo: 5000,
  platformAuth: 5000,
  errorLogs: 5000,
  renderProgress: 2000,
} as const;
export const PLATFORM_AUTH_MAX_POLLS = 24;

export const STALE_SCRIPT_MS = 30 * 60 * 1000;
export const STUCK_GENERATION_MS = 30 * 60 * 1000;
export const GENERATION_STARTED_FLAG_MS = 30 * 1000;

export const WORDS_PER_MINUTE = 150;

export const GENERATE_ALL = { imageBatchSize: 5, imageBatchPauseMs: 2000, voiceoverPauseMs: 1000, reloadAfterMs: 2000 };

export const MUSIC = { minTracks: 1, maxTracks: 5, defaultVolume: 5, minVolume: 0, maxVolume: 100, maxCachedAudio: 3 };

// The spec's observed page showed made-up progress (10/30/50/80/95 % every 0.8 s); the upload page shows the bytes
// YouTube acknowledged instead, or no number until there is one (issue 47, decision 199).
export const UPLOAD_LIMITS = {
  descriptionChars: 4900,
  tagsChars: 400,
};

export const YOUTUBE_CATEGORY_IDS = ["1", "2", "10", "15", "17", "19", "20", "22", "23", "24", "25", "26", "27", "28"] as const;
export const DEFAULT_CATEGORY_ID = "24";
export const INITIAL_CATEGORY_ID = "22";
export const PRIVACY_STATUSES = ["public", "unlisted", "private"] as const;

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export const DEFAULT_SCHEDULE_TIME = "12:00";

export const THUMBNAIL = {
  fonts: ["Bebas Neue", "Anton", "Oswald", "Poppins", "Bangers", "Luckiest Guy", "Russo One", "Montserrat Extra Bold", "Lilita One"],
  defaultFont: "Bebas Neue",
  minFontSize: 40,
  maxFontSize: 160,
  fontSizeStep: 4,
  defaultFontSize: 72,
  width: 1280,
  height: 720,
  borderPx: 30,
};

export const SUBSCRIPTION_PRICE_USD = 10;

export const FILE_LIMITS = { logoBytes: 2 * 1024 * 1024, legacyWatermarkBytes: 5 * 1024 * 1024 };
export const MODEL_DESCRIPTION_CHARS = 50;
export const RECENT_ERRORS_SHOWN = 5;
export const CLEANUP_PROJECT_ID = 2;
export const MASK_PLACEHOLDER_FALLBACK = 8;

export const TOAST = {
  maxWidthPx: 420,
  durationMs: 5000,
  swipeThresholdPx: 50,
  removeDelayMs: 1_000_000,
  hotkey: ["F8"],
  limit: 1,
};
export const TOOLTIP_DELAY_MS = 700;

export const QUERY_DEFAULTS = { gcTimeMs: 5 * 60 * 1000, retryDelayCapMs: 30_000 };

/** The query key of GET /api/script-status, shared by the header and the script page so they share one cache entry. */
export const SCRIPT_STATUS_KEY = ["script-status"];
