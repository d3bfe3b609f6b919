import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sdk',
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'https://dapp.example/' } },
    include: ['test/**/*.test.ts'],
  },
});
