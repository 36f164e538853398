export { scrubSecrets } from "~/lib/scrub";
