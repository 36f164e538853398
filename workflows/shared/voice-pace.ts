// The voice pace's contract (issue 33): how fast a voice reads, in words per second at speed 1, measured on the
// worker (which runs the voices) for the own script's length estimate on /create and /script
// (app/server/voices.server.ts -> workflows/voice-pace.ts -> workflows/activities/voice-pace.ts).

export const voicePaceWorkflowId = (measureId: string) => `voice-pace-${measureId}`;

/** The voice is the one a project with this language and voice would use (voiceId null: the language's default). */
export type VoicePaceInput = { userId: string; voiceId: string | null; language: string };
export type VoicePace = { wordsPerSecond: number; measured: boolean };
