// The owner's neural voice upload in Settings (issue 48, decision 210): its limits, shared by the page, the route and
// the web server's body gate.
const MB = 1024 * 1024;
/** The largest voice model the owner may upload (Piper's "high" voices are about 110 MB). */
export const VOICE_UPLOAD_MAX_BYTES = 200 * MB;
/** The licence text saved beside the voice. */
export const VOICE_LICENCE_MAX_CHARS = 2000;
/** The upload's route. */
export const VOICE_UPLOAD_PATH = "/api/voices";

export const voiceUploadTooLargeMessage = () => `File too large: a voice model must be ${VOICE_UPLOAD_MAX_BYTES / MB} MB or smaller.`;
