import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuthProvider, useAuth } from '../../src/client/features/auth/auth-provider';
import { createAuthStore } from '../../src/client/features/auth/auth-store';

function ShowStatus() {
  return <p>{useAuth().status}</p>;
}

describe('useAuth', () => {
  it('throws an error that names the missing provider when used outside it', () => {
    expect(() => renderToString(<ShowStatus />)).toThrow('useAuth must be used within an AuthProvider');
  });

  it('reads the store inside the provider; nothing is known before the first status', () => {
    expect(
      renderToString(
        <AuthProvider store={createAuthStore()}>
          <ShowStatus />
        </AuthProvider>,
      ),
    ).toContain('loading');
  });
});
