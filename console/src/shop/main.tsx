import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../i18n';
import '../app/console.css';
import './shop.css';
import { Providers } from '../app/Providers';
import { ReturnPage } from './ReturnPage';
import { isReturnPage } from './shop-api';
import { StorefrontPage } from './StorefrontPage';

// The storefront is a page of its own (shop.html): none of the console's admin code is loaded here.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>{isReturnPage() ? <ReturnPage /> : <StorefrontPage />}</Providers>
  </StrictMode>,
);
