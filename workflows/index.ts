// Every workflow the worker runs. The worker bundles this file; keep it free of I/O and Node APIs.
export { healthCheckWorkflow } from "./health-check";
