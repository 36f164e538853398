// How Google's Gemini API (text, vision, Veo) answers a bad key: 400 INVALID_ARGUMENT with the reason API_KEY_INVALID
// ("API key not valid", or "API key expired"), not 401/403. The HTTP client treats it as an authentication failure.
export const isGeminiKeyError = (status: number, body: string) => status === 400 && /API_KEY_INVALID|API key not valid|API key expired/i.test(body);
