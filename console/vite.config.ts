import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the service under /console (src/console/ of the server); `npm run dev` proxies the API to a running service.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: { '/admin': process.env.CONSOLE_API ?? 'http://localhost:3000' },
  },
});
