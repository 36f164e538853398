// Provider error texts can echo what was sent: an API key in a URL (?key=), a header, a token. Every text that
// leaves a provider call (pages, logs, the error log, workflow history) passes through scrubSecrets first.

const REDACTED = "[redacted]";

const PATTERNS: [RegExp, string][] = [
  // key-like query parameters and form fields: ?key=..., &api_key=..., access_token=...
  [/([?&;\s](?:key|api[_-]?key|apikey|token|access[_-]?token|refresh[_-]?token|client[_-]?secret|secret|password|sig|signature)=)[^&\s"'<>]+/gi, `$1${REDACTED}`],
  // headers and JSON fields that carry a credential
  [
    /((?:authorization|x-api-key|xi-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|secret)["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?[^\s"',}]+/gi,
    `$1${REDACTED}`,
  ],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // well-known key shapes: Google (AIza...), OpenAI/Stripe/ElevenLabs style (sk-..., sk_live_..., rk_...), Google OAuth tokens
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\b(?:sk|rk|pk)[-_](?:live_|test_|proj-)?[0-9A-Za-z_-]{16,}/g, REDACTED],
  [/\bya29\.[0-9A-Za-z_-]{10,}/g, REDACTED],
  [/\bGOCSPX-[0-9A-Za-z_-]{10,}/g, REDACTED],
  // any other long run of letters and digits (32+ characters, both kinds) looks like a key or a token
  [/\b(?=[0-9A-Za-z_-]*\d)(?=[0-9A-Za-z_-]*[A-Za-z])[0-9A-Za-z_-]{32,}\b/g, REDACTED],
];

/** The text with credentials replaced by "[redacted]": known secrets exactly, and anything shaped like one. */
export function scrubSecrets(text: string, knownSecrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret && secret.length >= 6) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
