/** The API's zod schemas, shared by the client and the emulator. */
export * from "./common";
export * from "./enums";
export * from "./identifiers";
export * from "./scans";
export * from "./projects";
export * from "./policies";
export * from "./dependencies";
export * from "./sbom";
export * from "./policies-v2";
export * from "./products";
export * from "./notification-rules";
export * from "./users";
export * from "./teams";
