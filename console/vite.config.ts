import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Served by the service under /console (src/console/ of the server), with a second page, the card
// holder's portal, served at /portal, and a third, a program's storefront, served at /shop/<program id>;
// `npm run dev` proxies the API to a running service.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        portal: fileURLToPath(new URL('portal.html', import.meta.url)),
        shop: fileURLToPath(new URL('shop.html', import.meta.url)),
      },
    },
  },
  server: {
    proxy: {
      '/admin': process.env.CONSOLE_API ?? 'http://localhost:3000',
      '/api': process.env.CONSOLE_API ?? 'http://localhost:3000',
      '/shop/api': process.env.CONSOLE_API ?? 'http://localhost:3000',
    },
  },
});
