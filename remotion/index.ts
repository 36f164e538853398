// Remotion's entry point: `npm run studio` and the worker's bundler both start here.
import { registerRoot } from "remotion";
import { RemotionRoot } from "./Root";

registerRoot(RemotionRoot);
