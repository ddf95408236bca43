import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { localJsonStorage } from '../../../lib/local-storage.ts';

/** The reset-password store, persisted (docs/product-rules.md#client-stores). */
export interface ResetPasswordState {
  currentMail: string;
  resetPasswordAuth: boolean;
  setCurrentMail(mail: string): void;
  setResetPasswordAuth(value: boolean): void;
  clearCurrentMail(): void;
}

export const useResetPasswordStore = create<ResetPasswordState>()(
  persist(
    (set) => ({
      currentMail: '',
      resetPasswordAuth: false,
      setCurrentMail: (mail) => set({ currentMail: mail }),
      setResetPasswordAuth: (value) => set({ resetPasswordAuth: value }),
      clearCurrentMail: () => set({ currentMail: '' }),
    }),
    {
      name: 'resetPassword',
      version: 1,
      storage: localJsonStorage(),
      partialize: (s) => ({ currentMail: s.currentMail, resetPasswordAuth: s.resetPasswordAuth }),
    },
  ),
);
