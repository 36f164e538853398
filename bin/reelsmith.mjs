#!/usr/bin/env node
// The Reelsmith command line (issue 32): make videos through a Reelsmith server's /api/v1 with a personal API token.
//   reelsmith make --title "..." --topic "..." [options] [--wait [--output video.mp4]]
//   reelsmith status <id>      reelsmith list      reelsmith batch <rows.csv|rows.json> [--concurrency 2]
//   reelsmith post <id> --platforms tiktok,instagram --caption "..." --tiktok-privacy SELF_ONLY --agree-music-usage [--at <ISO>]
// The server and token come from --url/--token, else REELSMITH_URL/REELSMITH_TOKEN, else the config file
// (~/.config/reelsmith/config.json: { "url": "...", "token": "rs_pat_..." }). Plain JavaScript: it runs with
// `node` alone, from a checkout or an installed package.
import { createWriteStream } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import cliProgress from "cli-progress";
import { Command, InvalidArgumentError, Option } from "commander";
import { parse as parseCsv } from "csv-parse/sync";
import createClient from "openapi-fetch";

/** How often a waiting command reads the video: every 2 s, or REELSMITH_POLL_MS (250 ms to 1 min). */
const POLL_MS = Math.min(60_000, Math.max(250, Number(process.env.REELSMITH_POLL_MS) || 2000));
/** Without a terminal, an unchanged set of stages is printed again at most this often (the time left moves). */
const PLAIN_REPEAT_MS = 10_000;
const BATCH_CONCURRENCY = { default: 2, max: 4 };
const BATCH_MAX_ROWS = 100;
/** Option names a batch row may carry (the API's CreateVideo fields). */
const ROW_FIELDS = {
  text: ["title", "topic", "script", "format", "language", "voice", "captionStyle", "captionPosition", "captionSize", "imageSource", "musicPrompt", "thumbnailText", "publishAt", "privacyStatus", "youtubeCategoryId"],
  number: ["duration", "voiceSpeed", "musicVolume", "quality"],
  boolean: ["captions", "music", "upload"],
};

class CliError extends Error {}

// ── configuration ─────────────────────────────────────────────────────────────────────────────────────
async function readConfigFile() {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  const file = process.env.REELSMITH_CONFIG || path.join(base, "reelsmith", "config.json");
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if (error && error.code === "ENOENT") return {};
    throw new CliError(`The config file ${file} is not valid JSON: ${error.message}`);
  }
}

async function connection(globals) {
  const file = await readConfigFile();
  const url = globals.url || process.env.REELSMITH_URL || file.url;
  const token = globals.token || process.env.REELSMITH_TOKEN || file.token;
  if (!url) throw new CliError("No server: pass --url, set REELSMITH_URL, or put { \"url\": ... } in ~/.config/reelsmith/config.json.");
  if (!token) throw new CliError("No API token: pass --token, set REELSMITH_TOKEN, or put { \"token\": ... } in the config file. Make one under Settings > API tokens.");
  const baseUrl = url.replace(/\/+$/, "");
  const api = createClient({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  return { api, baseUrl, token };
}

/** The answer's data, or a CliError in the server's words (RFC 9457 problem detail). */
function unwrap(result) {
  if (result.error !== undefined || !result.response.ok) {
    const problem = result.error || {};
    const field = problem.field ? ` (${problem.field})` : "";
    throw new CliError(`${result.response.status} ${problem.title || result.response.statusText}: ${problem.detail || problem.message || "request failed"}${field}`);
  }
  return result.data;
}

// ── options ───────────────────────────────────────────────────────────────────────────────────────────
const int = (name) => (value) => {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`${name} must be a whole number.`);
  return n;
};

function truthy(name, value) {
  const v = String(value).trim().toLowerCase();
  if (["true", "yes", "1", "on"].includes(v)) return true;
  if (["false", "no", "0", "off"].includes(v)) return false;
  throw new CliError(`${name} must be true or false, not "${value}".`);
}

/** A batch row (CSV strings or JSON values) as CreateVideo options; empty cells are left out. */
function rowOptions(row, index) {
  const options = {};
  for (const [key, raw] of Object.entries(row)) {
    if (raw === undefined || raw === null || raw === "") continue;
    if (ROW_FIELDS.text.includes(key)) options[key] = String(raw);
    else if (ROW_FIELDS.number.includes(key)) {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new CliError(`Row ${index + 1}: ${key} must be a number, not "${raw}".`);
      options[key] = n;
    } else if (ROW_FIELDS.boolean.includes(key)) options[key] = typeof raw === "boolean" ? raw : truthy(`Row ${index + 1}: ${key}`, raw);
    else throw new CliError(`Row ${index + 1}: unknown column "${key}". Columns: ${[...ROW_FIELDS.text, ...ROW_FIELDS.number, ...ROW_FIELDS.boolean].join(", ")}.`);
  }
  if (!options.title) throw new CliError(`Row ${index + 1}: title is required.`);
  return options;
}

async function readRows(file) {
  const text = await readFile(file, "utf8");
  let rows;
  if (file.toLowerCase().endsWith(".json")) {
    rows = JSON.parse(text);
    if (!Array.isArray(rows)) throw new CliError(`${file} must hold a JSON array of rows.`);
  } else if (file.toLowerCase().endsWith(".csv")) {
    rows = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } else throw new CliError("A batch file is .csv (a header row of option names) or .json (an array of objects).");
  if (rows.length === 0) throw new CliError(`${file} has no rows.`);
  if (rows.length > BATCH_MAX_ROWS) throw new CliError(`${file} has ${rows.length} rows; a batch takes at most ${BATCH_MAX_ROWS}.`);
  return rows.map(rowOptions);
}

// ── waiting and downloading ───────────────────────────────────────────────────────────────────────────
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the video until it is no longer running; `onUpdate` sees each answer. */
async function waitFor(api, id, onUpdate) {
  for (;;) {
    const video = unwrap(await api.GET("/api/v1/videos/{id}", { params: { path: { id } } }));
    onUpdate(video);
    if (video.status !== "running" && video.status !== "queued") return video;
    await sleep(POLL_MS);
  }
}

async function download({ baseUrl, token }, link, file) {
  const response = await fetch(`${baseUrl}${link}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new CliError(`Downloading ${link} failed: ${response.status} ${response.statusText}`);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await pipeline(Readable.fromWeb(response.body), createWriteStream(file));
  return file;
}

/**
 * The stages that run at once and the time left, on one line ("script done · pictures 12/20 · music running ·
 * render waiting · about 1 min 10 s left"); the stage in words from a server without it.
 */
const stagesLine = (video) => video.progressLine || video.stageLabel;
/** The line without its time left: what changes when a stage starts, ends or counts on. */
const stagesOnly = (line) => line.replace(/ · (about .* left|a few seconds left)$/, "");

/** Prints each new state of the stages on its own line (without a terminal), at most every few seconds when only the time left moved. */
function plainProgress(prefix) {
  let last = "";
  let lastAt = 0;
  return (video) => {
    const line = `${prefix}${video.percent}% ${stagesLine(video)}`;
    const now = Date.now();
    if (line === last || (stagesOnly(line) === stagesOnly(last) && now - lastAt < PLAIN_REPEAT_MS)) return;
    process.stderr.write(`${line}\n`);
    last = line;
    lastAt = now;
  };
}

/** The line as wide as the terminal leaves beside the bar. */
const fitted = (line, room) => (line.length <= room ? line : `${line.slice(0, Math.max(10, room - 1))}…`);

function progressBar(label) {
  if (!process.stderr.isTTY) return { update: plainProgress(label), stop() {} };
  const bar = new cliProgress.SingleBar({ format: `${label}{bar} {percentage}% | {stage}`, stream: process.stderr, hideCursor: true, barsize: 20 }, cliProgress.Presets.shades_classic);
  bar.start(100, 0, { stage: "Starting" });
  const room = () => (process.stderr.columns || 100) - label.length - 30;
  return { update: (video) => bar.update(video.percent, { stage: fitted(stagesLine(video), room()) }), stop: () => bar.stop() };
}

function summary(video) {
  const lines = [`${video.id}  ${video.status}  ${video.stageLabel}  ${video.percent}%  ${video.title}`];
  if (video.status === "running" && video.progressLine) lines.push(`  ${video.progressLine}`);
  if (video.error) lines.push(`  error: ${video.error}`);
  if (video.links.video) lines.push(`  video: ${video.links.video}`);
  if (video.links.youtube) lines.push(`  youtube: ${video.links.youtube}`);
  return lines.join("\n");
}

const print = (json, data, text) => process.stdout.write(`${json ? JSON.stringify(data, null, 2) : text}\n`);

// ── commands ──────────────────────────────────────────────────────────────────────────────────────────
const program = new Command();
program
  .name("reelsmith")
  .description("Make videos with a Reelsmith server: a title and a topic become a rendered MP4.")
  .option("--url <url>", "the server (default: REELSMITH_URL or the config file)")
  .option("--token <token>", "a personal API token (default: REELSMITH_TOKEN or the config file)")
  .showHelpAfterError();

program
  .command("make")
  .description("make one whole video")
  .requiredOption("--title <text>", "the video's title")
  .option("--topic <text>", "what it is about (Reelsmith writes the script)")
  .option("--script-file <path>", "your own script, used as written (blank lines or --- break scenes)")
  .addOption(new Option("--format <format>", "the format").choices(["16:9", "9:16", "9:16-tiktok"]))
  .option("--duration <seconds>", "length in seconds", int("duration"))
  .option("--language <code>", "narration language, e.g. en, fr")
  .option("--voice <id>", "a voice id (reelsmith voices lists them through the API)")
  .option("--captions", "burn in captions")
  .option("--no-captions", "no captions")
  .addOption(new Option("--image-source <source>", "where scene pictures come from").choices(["offline", "leonardo", "pexels_photos", "pexels_clips"]))
  .option("--music", "add generated background music (Premium)")
  .option("--thumbnail-text <text>", "the words on the thumbnail (default: the title)")
  .option("--quality <height>", "render height: 720, 1080 or 2160 (default: the best your plan allows)", int("quality"))
  .option("--publish-at <iso>", "upload to YouTube and publish then (Premium, YouTube connected)")
  .option("--wait", "wait until it is made, with a progress bar, and download the MP4")
  .option("--output <file>", "where --wait saves the MP4 (default: <id>.mp4)")
  .option("--json", "print the video as JSON")
  .action(async (opts, command) => {
    const conn = await connection(command.optsWithGlobals());
    const body = { title: opts.title };
    if (opts.topic) body.topic = opts.topic;
    if (opts.scriptFile) body.script = await readFile(opts.scriptFile, "utf8");
    if (!body.topic && !body.script) throw new CliError("Give --topic, or your own script with --script-file.");
    for (const [flag, field] of [["format", "format"], ["duration", "duration"], ["language", "language"], ["voice", "voice"], ["imageSource", "imageSource"], ["thumbnailText", "thumbnailText"], ["quality", "quality"], ["publishAt", "publishAt"]]) {
      if (opts[flag] !== undefined) body[field] = opts[flag];
    }
    if (command.getOptionValueSource("captions") === "cli") body.captions = opts.captions;
    if (opts.music) body.music = true;
    let video = unwrap(await conn.api.POST("/api/v1/videos", { body }));
    if (!opts.wait) return print(opts.json, video, summary(video));
    const bar = progressBar("");
    try {
      video = await waitFor(conn.api, video.id, (v) => bar.update(v));
    } finally {
      bar.stop();
    }
    if (video.status !== "completed") {
      print(opts.json, video, summary(video));
      throw new CliError(`The video did not finish: ${video.error || video.status}`);
    }
    const file = await download(conn, video.links.video, opts.output || `${video.id}.mp4`);
    print(opts.json, { ...video, file }, `${summary(video)}\n  saved: ${file}`);
  });

program
  .command("post")
  .description("post a finished video to TikTok and Instagram Reels (the accounts connected in Settings), now or at a time")
  .argument("<id>", "the video's id")
  .requiredOption("--platforms <list>", "where: tiktok, instagram or both, comma separated")
  .option("--caption <text>", "the caption (with its hashtags)", "")
  .addOption(new Option("--tiktok-privacy <level>", "who can see the TikTok post (one the account offers)").choices(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"]))
  .option("--tiktok-inbox", "send it to the TikTok inbox as a draft instead")
  .option("--allow-comments", "let TikTok viewers comment")
  .option("--agree-music-usage", "you agree to TikTok's Music Usage Confirmation (needed to post to TikTok)")
  .option("--no-instagram-feed", "show the Reel in the Reels tab only, not the feed")
  .option("--at <time>", "post at this ISO date and time instead of now")
  .option("--json", "print JSON")
  .action(async (id, opts, command) => {
    const platforms = [...new Set(String(opts.platforms).split(",").map((p) => p.trim().toLowerCase()).filter(Boolean))];
    for (const p of platforms) if (!["tiktok", "instagram"].includes(p)) throw new CliError(`--platforms takes tiktok and instagram, not "${p}".`);
    if (platforms.includes("tiktok") && !opts.agreeMusicUsage) throw new CliError("Posting to TikTok needs --agree-music-usage (TikTok's Music Usage Confirmation).");
    if (platforms.includes("tiktok") && !opts.tiktokInbox && !opts.tiktokPrivacy) throw new CliError("Choose who can see the TikTok post: --tiktok-privacy (no default, as TikTok requires).");
    const { api } = await connection(command.optsWithGlobals());
    const { accounts } = unwrap(await api.GET("/api/v1/social-accounts"));
    const posts = platforms.map((platform) => {
      const account = accounts.find((a) => a.platform === platform && !a.needsReconnect);
      if (!account) throw new CliError(`No usable ${platform === "tiktok" ? "TikTok" : "Instagram"} account: connect one in Settings.`);
      return {
        platform,
        connectionId: account.id,
        caption: opts.caption,
        scheduledAt: opts.at ? new Date(opts.at).toISOString() : null,
        ...(platform === "tiktok"
          ? { tiktok: { mode: opts.tiktokInbox ? "inbox" : "direct", privacyLevel: opts.tiktokPrivacy ?? null, allowComment: Boolean(opts.allowComments), consent: true } }
          : { instagram: { shareToFeed: opts.instagramFeed !== false } }),
      };
    });
    const result = unwrap(await api.POST("/api/v1/videos/{id}/posts", { params: { path: { id } }, body: { posts } }));
    const lines = [
      ...result.posts.map((p) => `${p.platform}  ${p.accountName ?? ""}  ${p.status}${p.scheduledAt ? ` at ${p.scheduledAt}` : ""}  post ${p.id}`),
      ...result.refused.map((r) => `${r.platform}  refused: ${r.reasons.join(" ")}`),
    ];
    print(opts.json, result, lines.join("\n"));
    if (result.refused.length) throw new CliError(`${result.refused.length} platform(s) refused the video.`);
  });

program
  .command("status")
  .description("where a video is: stage, percent, the stages running at once and the time left, error, links")
  .argument("<id>", "the video's id")
  .option("--json", "print JSON")
  .action(async (id, opts, command) => {
    const { api } = await connection(command.optsWithGlobals());
    const video = unwrap(await api.GET("/api/v1/videos/{id}", { params: { path: { id } } }));
    print(opts.json, video, summary(video));
  });

program
  .command("list")
  .description("your videos, newest first")
  .option("--limit <n>", "how many (1-100)", int("limit"), 20)
  .addOption(new Option("--status <status>", "only these").choices(["queued", "running", "completed", "failed", "cancelled"]))
  .option("--json", "print JSON")
  .action(async (opts, command) => {
    const { api } = await connection(command.optsWithGlobals());
    const page = unwrap(await api.GET("/api/v1/videos", { params: { query: { limit: opts.limit, ...(opts.status ? { status: opts.status } : {}) } } }));
    print(opts.json, page, page.videos.length ? page.videos.map(summary).join("\n") : "No videos yet.");
  });

program
  .command("batch")
  .description("make one video per row of a CSV (header of option names) or JSON file, a few at a time, and download them")
  .argument("<file>", "rows.csv or rows.json")
  .option("--concurrency <n>", `videos made at once (1-${BATCH_CONCURRENCY.max})`, int("concurrency"), BATCH_CONCURRENCY.default)
  .option("--output-dir <dir>", "where the MP4s go", ".")
  .option("--json", "print the results as JSON")
  .action(async (file, opts, command) => {
    if (opts.concurrency < 1 || opts.concurrency > BATCH_CONCURRENCY.max) throw new CliError(`--concurrency must be from 1 to ${BATCH_CONCURRENCY.max}.`);
    const conn = await connection(command.optsWithGlobals());
    const rows = await readRows(file);
    const results = new Array(rows.length);
    let next = 0;
    let running = 0;
    let mostAtOnce = 0;
    const multibar = process.stderr.isTTY ? new cliProgress.MultiBar({ format: "{row} {bar} {percentage}% | {stage}", stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
    async function worker() {
      while (next < rows.length) {
        const index = next++;
        const label = `row ${String(index + 1).padStart(String(rows.length).length)}`;
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        const bar = multibar?.create(100, 0, { row: label, stage: "Starting" });
        try {
          const started = unwrap(await conn.api.POST("/api/v1/videos", { body: rows[index] }));
          const plain = plainProgress(`${label}: `);
          const video = await waitFor(conn.api, started.id, (v) => {
            if (bar) bar.update(v.percent, { stage: fitted(stagesLine(v), (process.stderr.columns || 100) - label.length - 30) });
            else plain(v);
          });
          const saved = video.status === "completed" ? await download(conn, video.links.video, path.join(opts.outputDir, `${String(index + 1).padStart(3, "0")}-${video.id}.mp4`)) : null;
          results[index] = { row: index + 1, id: video.id, status: video.status, error: video.error, file: saved };
        } catch (error) {
          results[index] = { row: index + 1, id: null, status: "failed", error: error.message, file: null };
        } finally {
          running--;
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, rows.length) }, worker));
    multibar?.stop();
    const failed = results.filter((r) => r.status !== "completed").length;
    print(opts.json, { results, mostAtOnce }, results.map((r) => `row ${r.row}: ${r.status}${r.file ? `  ${r.file}` : ""}${r.error ? `  ${r.error}` : ""}`).join("\n"));
    if (failed) throw new CliError(`${failed} of ${rows.length} videos did not finish.`);
  });

program.parseAsync(process.argv).catch((error) => {
  process.stderr.write(`reelsmith: ${error instanceof CliError ? error.message : error.stack || error}\n`);
  process.exit(1);
});
