// Lint for the whole repository: TypeScript (server, electron, tests, benchmarks) and the Vue renderer.
// Type-aware rules are left to `tsc --noEmit` (npm run typecheck) to keep linting fast on 2 cores.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-results/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
  },
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // The engine runs per render: V8 allocates a function literal assigned straight to a property in the old
    // generation (taken for a method), where a dead one keeps what it closes over through every scavenge — a whole
    // render's layout, once (server/engine/pdf/flow/floats.ts, FloatAt; docs/benchmarks.md, session 19, promo19).
    files: ['server/engine/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.type='MemberExpression'] > :matches(ArrowFunctionExpression, FunctionExpression).right",
          message: 'Make the function a local first, then store it: V8 puts `obj.prop = () => …` in the old generation (floats.ts, FloatAt).',
        },
      ],
    },
  },
);
