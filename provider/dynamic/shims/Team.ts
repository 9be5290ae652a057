/** The `__provider` of Team (see ./shim.ts). Old state requires this module by name: keep its path. */
import { shim } from "./shim";

export = shim("Team");
