import { useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';

export type NoticeVariant = 'success' | 'danger' | 'secondary';

// The one line that says how an export, a backup or a restore ended; it takes the focus, so a screen reader reads it.
export function useTransferNotice() {
  const [notice, setNotice] = useState<{ variant: NoticeVariant; text: string } | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const say = (variant: NoticeVariant, text: string) => {
    setNotice({ variant, text });
    requestAnimationFrame(() => noticeRef.current?.focus());
  };
  const element = notice ? (
    <Alert
      variant={notice.variant}
      className="mt-3 mb-0"
      ref={noticeRef}
      tabIndex={-1}
      role={notice.variant === 'danger' ? 'alert' : 'status'}
      dismissible
      onClose={() => setNotice(null)}
    >
      {notice.text}
    </Alert>
  ) : null;
  return { say, clear: () => setNotice(null), element };
}
