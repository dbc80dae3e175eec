// Lint rules for every TypeScript file we write; generated code (proto/gen, the client's types) and build output are left out.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'proto/gen/**', 'client/src/generated/**', '**/*.d.ts', '**/*.js', '**/*.mjs', '**/*.cjs', 'bench/results/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.lint.json'], tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its error: an unhandled rejection ends the process.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a callback's result is ignored (event emitters, express) drops its rejection.
      '@typescript-eslint/no-misused-promises': 'error',
      // Type-only imports vanish from the output, so loading a module never loads what only its types need.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `import { type A }` still loads the module for its side effects; `import type { A }` does not.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
