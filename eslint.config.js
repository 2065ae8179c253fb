// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

export default defineConfig(
  {
    ignores: ['dist/', 'dist-server/', 'coverage/', 'test-results/', 'var/', 'public/', 'node_modules/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Every linted file is in tsconfig.json, so the rules see the same types as `npm run typecheck`.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      // The imports name their .ts files, so Node's own resolution finds them; the import rules
      // read those files with the TypeScript parser.
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        // Express 5 awaits a handler's promise and passes its rejection to the error handler,
        // so an async handler where Express expects a void callback is the design, not a slip.
        { checksVoidReturn: { arguments: false } },
      ],
      // A leading underscore marks a parameter a signature needs but the body does not (Express's
      // four-argument error handler, an interface's argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A module that needs itself to load cannot be read or tested in parts. Only the shop's
      // own modules are followed: a package's internals are not ours to untangle.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/web',
              from: './src/features',
              message: 'src/web/ is plumbing that knows no shop rules: pass what it needs in from app.ts instead.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // supertest's res.body and the drivers' evaluate results are typed any on purpose: the
      // test's assertions are what check their shape, so reading them is not unsafe.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // A stub standing in for an async interface is async without having anything to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
