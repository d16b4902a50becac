// The demo stack as a plain Pulumi program, for a Pulumi install that has the Node.js language
// host (`pulumi up` here). `npm run demo` runs the same program through the Automation API.
import { demoProgram } from "./demo/program";

export = demoProgram();
