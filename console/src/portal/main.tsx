import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../i18n';
import '../app/console.css';
import { Providers } from '../app/Providers';
import { PortalPage } from './PortalPage';

// The portal is a page of its own (portal.html): none of the console's admin code is loaded here.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <PortalPage />
    </Providers>
  </StrictMode>,
);
