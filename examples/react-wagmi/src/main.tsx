import { AirlockProvider } from '@airlock/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.tsx'
import { instance, options, wagmiConfig } from './config.ts'

const queryClient = new QueryClient()

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <WagmiProvider config={wagmiConfig}>
      <QueryClientProvider client={queryClient}>
        <AirlockProvider options={options} airlock={instance}>
          <App />
        </AirlockProvider>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
