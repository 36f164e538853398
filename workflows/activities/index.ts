// Every activity the worker offers. Activities do all the I/O; workflows only orchestrate them.
export { recordHealthCheck } from "./health-check";
