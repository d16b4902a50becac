// The stack's program. notify-export wrote it once, and `notify-export --update` never rewrites it.
// notify.generated.ts declares the environment's objects and is rewritten from the service by --update:
// import what you reference from it (`import { <name> } from "./notify.generated";`) and declare
// your own resources below.
import "./notify.generated";
