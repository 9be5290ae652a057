// Lint: ESLint's and typescript-eslint's recommended rules (formatting is Prettier's job).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "examples/**/node_modules/**", "sdk/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "Buffer", "URL", "fetch", "setTimeout", "structuredClone", "__dirname", "require", "module"].map((name) => [
          name,
          "readonly",
        ]),
      ),
    },
    rules: {
      // `_name` marks a value left unused on purpose (a destructured field dropped, say).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // The CommonJS fixtures a test runs with plain Node, as a user's program would be.
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
