import type {
  ActionCodeInfo,
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  ReauthenticateBody,
  ReauthenticateResponse,
  RegisterBody,
  ResendVerificationResponse,
  ResetPasswordBody,
  UserResponse,
  VerifyEmailResponse,
} from '@shop/shared/auth';
import { apiGet, apiPost, signOutDone, signOutStarted } from '../../../lib/api-client.ts';

/** Signs out on the server; the caller leaves the member pages, then calls forgetSignedIn. */
async function logout(): Promise<{ ok: true }> {
  signOutStarted();
  try {
    return await apiPost<{ ok: true }>('/api/auth/logout');
  } catch (error) {
    signOutDone();
    throw error;
  }
}

/** Fetchers of the identity API; pages wrap them in react-query hooks or forms. */
export const authApi = {
  login: (body: LoginBody) => apiPost<UserResponse>('/api/auth/login', body),
  register: (body: RegisterBody) => apiPost<UserResponse>('/api/auth/register', body),
  logout,
  forgotPassword: (body: ForgotPasswordBody) => apiPost<{ ok: true }>('/api/auth/forgot-password', body),
  checkResetCode: (code: string) =>
    apiGet<ActionCodeInfo>(`/api/auth/action-code?kind=reset-password&code=${encodeURIComponent(code)}`, {
      retry: 0,
    }),
  resetPassword: (body: ResetPasswordBody) => apiPost<ActionCodeInfo>('/api/auth/reset-password', body),
  verifyEmail: (code: string) => apiPost<VerifyEmailResponse>('/api/auth/verify-email', { code }),
  resendVerification: () => apiPost<ResendVerificationResponse>('/api/auth/resend-verification'),
  reauthenticate: (body: ReauthenticateBody) =>
    apiPost<ReauthenticateResponse>('/api/auth/reauthenticate', body),
  changePassword: (body: ChangePasswordBody) => apiPost<{ ok: true }>('/api/auth/change-password', body),
};
