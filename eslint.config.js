// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import tocsin from './tools/eslint/module-boundaries.js';
import { restrictedGlobals, restrictedImports, restrictedSyntax } from './tools/eslint/outbound-connections.js';

const PROCESS_ENV = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Only src/config reads process.env.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'web/dist/', '.tmp/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Non-null assertions on indexed access document intent; the compiler does not check indexes here.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      'no-restricted-syntax': ['error', PROCESS_ENV],
    },
  },
  {
    // The dependency rule (docs/architecture.md): http|cli → modules → platform, modules entered through index.ts.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    plugins: { tocsin },
    rules: { 'tocsin/module-boundaries': 'error' },
  },
  {
    // Every outbound connection goes through platform/net's connector (tools/eslint/outbound-connections.js).
    files: ['src/modules/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: restrictedImports }],
      'no-restricted-syntax': ['error', PROCESS_ENV, ...restrictedSyntax],
      'no-restricted-globals': ['error', ...restrictedGlobals],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', 'tools/container/**', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
);
