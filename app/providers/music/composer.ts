// Procedural composition for offline music: a prompt and a seed become a General MIDI arrangement (note events).
// Mood words pick the progression, instruments, tempo and drums; tempo words and "N bpm" adjust the tempo;
// instrument words choose the lead. The arrangement has an intro, alternating A/B sections, and an outro.
import { createRandom, pick } from "../seed";

export type Mood = "calm" | "upbeat" | "sad" | "epic" | "dark";

export type NoteEvent = { time: number; duration: number; channel: number; note: number; velocity: number };

export type Arrangement = {
  mood: Mood;
  bpm: number;
  key: number;
  /** GM program per melodic channel: 0 pad, 1 bass, 2 arpeggio, 3 lead. Channel 9 is drums. */
  programs: [number, number, number, number];
  events: NoteEvent[];
  seconds: number;
};

export const CHANNELS = { pad: 0, bass: 1, arp: 2, lead: 3, drums: 9 } as const;

type MoodStyle = {
  bpm: number;
  minor: boolean;
  /** Chords as scale degrees (0-based) of the key's scale. */
  progressions: number[][];
  programs: [number, number, number, number];
  drums: "none" | "light" | "full" | "toms";
};

const STYLES: Record<Mood, MoodStyle> = {
  calm: { bpm: 78, minor: false, progressions: [[0, 5, 3, 4], [0, 3, 5, 4], [0, 4, 5, 3]], programs: [89, 32, 46, 73], drums: "light" },
  upbeat: { bpm: 116, minor: false, progressions: [[0, 4, 5, 3], [0, 3, 4, 4], [5, 3, 0, 4]], programs: [48, 38, 4, 80], drums: "full" },
  sad: { bpm: 66, minor: true, progressions: [[0, 5, 2, 6], [0, 3, 6, 2], [0, 5, 3, 4]], programs: [49, 42, 0, 40], drums: "none" },
  epic: { bpm: 92, minor: true, progressions: [[0, 5, 2, 6], [0, 6, 5, 6], [0, 3, 5, 4]], programs: [48, 43, 61, 60], drums: "toms" },
  dark: { bpm: 72, minor: true, progressions: [[0, 5, 0, 4], [0, 1, 0, 5], [0, 3, 0, 4]], programs: [95, 39, 88, 71], drums: "light" },
};

const MOOD_WORDS: [Mood, RegExp][] = [
  ["upbeat", /\b(upbeat|energetic|happy|fun|dance|pop|bright|cheerful|uplifting|party|summer|groovy|funky)/i],
  ["epic", /\b(epic|cinematic|dramatic|orchestral|heroic|trailer|adventure|battle|powerful|triumph)/i],
  ["sad", /\b(sad|melanchol|emotional|somber|sombre|nostalgic|tragic|lonely|heartbreak|tender)/i],
  ["dark", /\b(dark|mysterious|mystery|suspense|tension|horror|eerie|spooky|thriller|ominous)/i],
  ["calm", /\b(calm|relax|ambient|peaceful|chill|lofi|lo-fi|soft|gentle|meditat|sleep|study|background)/i],
];

const LEAD_WORDS: [number, RegExp][] = [
  [0, /\bpiano/i],
  [24, /\bguitar/i],
  [40, /\bviolin/i],
  [48, /\bstrings?\b/i],
  [73, /\bflute/i],
  [81, /\bsynth/i],
  [65, /\bsax/i],
  [14, /\bbells?\b/i],
  [52, /\bchoir|vocal/i],
];

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

/** What the prompt asks for: the first mood word found (calm when none), the tempo, and an optional lead instrument. */
export function readPrompt(prompt: string): { mood: Mood; bpm: number; leadProgram?: number } {
  let mood: Mood = "calm";
  let firstAt = Infinity;
  for (const [m, words] of MOOD_WORDS) {
    const at = prompt.search(words);
    if (at >= 0 && at < firstAt) {
      mood = m;
      firstAt = at;
    }
  }
  let bpm = STYLES[mood].bpm;
  if (/\b(fast|quick|driving|energetic|rapid)/i.test(prompt)) bpm *= 1.18;
  if (/\b(slow|slower|relaxed|laid-back|lazy)/i.test(prompt)) bpm *= 0.85;
  const explicit = /(\d{2,3})\s*bpm/i.exec(prompt);
  if (explicit) bpm = Number(explicit[1]);
  bpm = Math.round(Math.min(180, Math.max(50, bpm)));
  const lead = LEAD_WORDS.find(([, words]) => words.test(prompt));
  return { mood, bpm, leadProgram: lead?.[0] };
}

const ARP_PATTERNS = [
  [0, 1, 2, 3, 2, 1, 0, 1],
  [0, 2, 1, 3, 0, 2, 1, 3],
  [3, 2, 1, 0, 1, 2, 3, 2],
  [0, 1, 2, 1, 0, 1, 2, 3],
];
/** Melody rhythms within a bar, in beats (onset, length). */
const MELODY_RHYTHMS = [
  [[0, 1.5], [1.5, 0.5], [2, 2]],
  [[0, 1], [1, 1], [2, 1], [3, 1]],
  [[0, 0.5], [0.5, 0.5], [1, 1], [2, 1.5], [3.5, 0.5]],
  [[0, 2], [2, 1], [3, 1]],
  [[0, 1], [1.5, 0.5], [2, 0.5], [2.5, 1.5]],
];

export function composeArrangement(options: { prompt: string; seconds: number; seed: string }): Arrangement {
  const random = createRandom(`${options.seed}\u0000${options.prompt}`);
  const { mood, bpm, leadProgram } = readPrompt(options.prompt);
  const style = STYLES[mood];
  const scale = style.minor ? MINOR : MAJOR;
  const key = 45 + Math.floor(random() * 8); // A2..E3 as the bass root
  const progression = pick(random, style.progressions);
  const programs: [number, number, number, number] = [...style.programs];
  if (leadProgram !== undefined) programs[3] = leadProgram;

  const beat = 60 / bpm;
  const bar = 4 * beat;
  const bars = Math.ceil(options.seconds / bar);
  const arpPattern = pick(random, ARP_PATTERNS);
  const events: NoteEvent[] = [];
  const add = (time: number, duration: number, channel: number, note: number, velocity: number) => {
    if (time < options.seconds) events.push({ time, duration, channel, note, velocity: Math.max(1, Math.min(127, Math.round(velocity))) });
  };
  const degreeNote = (degree: number, octave: number) => key + octave * 12 + scale[((degree % 7) + 7) % 7]! + 12 * Math.floor(degree / 7);
  let melodyDegree = 7 + Math.floor(random() * 3);

  for (let b = 0; b < bars; b++) {
    const t = b * bar;
    const chord = progression[b % progression.length]!;
    const triad = [chord, chord + 2, chord + 4, chord + 6];
    const intro = b < 2;
    const outro = b >= bars - 2 && bars > 6;
    const section = intro || outro ? "edge" : Math.floor((b - 2) / 8) % 2 === 0 ? "A" : "B";

    // pad: the chord held for the bar
    for (const d of triad.slice(0, 3)) add(t, bar, CHANNELS.pad, degreeNote(d, 1), intro ? 45 : 55);
    // bass: root on 1 and 3, sometimes an octave jump
    add(t, beat * 1.8, CHANNELS.bass, degreeNote(chord, 0), 95);
    if (!intro) add(t + 2 * beat, beat * 1.8, CHANNELS.bass, degreeNote(chord, random() < 0.3 ? 1 : 0), 85);
    if (section === "edge") continue;

    // arpeggio in eighths through the chord tones
    for (let k = 0; k < 8; k++) {
      if (random() < 0.12) continue;
      add(t + (k * beat) / 2, beat / 2, CHANNELS.arp, degreeNote(triad[arpPattern[k]!]!, 2), 55 + random() * 25);
    }
    // lead melody in B sections: steps through the scale, landing on chord tones on strong beats
    if (section === "B") {
      const rhythm = pick(random, MELODY_RHYTHMS);
      for (const [onset, length] of rhythm) {
        const strong = onset! % 2 === 0;
        if (strong) {
          const targets = triad.slice(0, 3).map((d) => d + 7);
          melodyDegree = targets.reduce((best, d) => (Math.abs(d - melodyDegree) < Math.abs(best - melodyDegree) ? d : best), targets[0]!);
        } else {
          melodyDegree += random() < 0.5 ? 1 : -1;
        }
        melodyDegree = Math.min(14, Math.max(5, melodyDegree));
        add(t + onset! * beat, length! * beat * 0.95, CHANNELS.lead, degreeNote(melodyDegree, 1), 80 + random() * 20);
      }
    }
    // drums (GM channel 10): kick 36, snare 38, closed hat 42, low/high toms 45/50
    if (style.drums === "full") {
      add(t, 0.2, CHANNELS.drums, 36, 110);
      add(t + 2 * beat, 0.2, CHANNELS.drums, 36, 105);
      add(t + beat, 0.2, CHANNELS.drums, 38, 95);
      add(t + 3 * beat, 0.2, CHANNELS.drums, 38, 100);
      for (let k = 0; k < 8; k++) add(t + (k * beat) / 2, 0.05, CHANNELS.drums, 42, k % 2 ? 55 : 75);
    } else if (style.drums === "light") {
      add(t, 0.3, CHANNELS.drums, 36, 80);
      for (let k = 0; k < 8; k += 2) add(t + (k * beat) / 2, 0.05, CHANNELS.drums, 42, 45);
    } else if (style.drums === "toms") {
      add(t, 0.4, CHANNELS.drums, 45, 105);
      add(t + 2.5 * beat, 0.3, CHANNELS.drums, 50, 85);
      add(t + 3 * beat, 0.3, CHANNELS.drums, 45, 95);
    }
  }
  events.sort((a, b) => a.time - b.time);
  return { mood, bpm, key, programs, events, seconds: options.seconds };
}
