// The page's script preloads at low fetch priority (issue 36, decision 134's second round). Remix's <Scripts>
// writes a <link rel="modulepreload"> for every chunk a page needs; browsers fetch those at high priority, as they
// would a blocking script. Module scripts never block the first paint, but Lighthouse's simulation counts a
// high-priority script that happened to finish before the paint as if it blocked it (on a fast local network they
// always do), so a page's first paint was estimated at 0.8 s or 2.5 s on identical bytes. At low priority the
// chunks still load at once, after the stylesheet and the first scene image.
import { Transform } from "node:stream";

const PRELOAD = '<link rel="modulepreload"';
const LOW = '<link rel="modulepreload" fetchpriority="low"';

/** A stream of HTML with every module preload at low priority; a tag split between two chunks is found too. */
export function modulePreloadsAtLowPriority(): Transform {
  let carry = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = carry + chunk.toString();
      // keep back what could be the start of a tag the next chunk completes
      let keep = 0;
      for (let n = Math.min(PRELOAD.length - 1, text.length); n > 0; n--) {
        if (PRELOAD.startsWith(text.slice(text.length - n))) {
          keep = n;
          break;
        }
      }
      carry = text.slice(text.length - keep);
      done(null, text.slice(0, text.length - keep).replaceAll(PRELOAD, LOW));
    },
    flush(done) {
      done(null, carry);
    },
  });
}
