import { useId } from 'react';
import { Button } from './button';
import { Modal } from './modal';
import { WholeDates } from './whole-dates';

export interface ModalMessage {
  title: string;
  message: string;
  type?: 'info' | 'error';
}

/** The spec's generic modal: a title, a message and Close; errors use the error style. */
export function MessageModal({ content, onClose }: { content: ModalMessage | null; onClose: () => void }) {
  const isError = content?.type === 'error';
  const messageId = useId();
  return (
    <Modal
      isOpen={content !== null}
      title={content?.title ?? ''}
      onClose={onClose}
      tone={isError ? 'error' : 'default'}
      descriptionId={messageId}
    >
      <p id={messageId} className="text-sm text-slate-700">
        <WholeDates text={content?.message ?? ''} />
      </p>
      <div className="mt-6 flex justify-end">
        <Button variant={isError ? 'danger' : 'primary'} onClick={onClose}>
          Close
        </Button>
      </div>
    </Modal>
  );
}

/** The generic modal content for a failed request: title 'Error', the error's message. */
export function errorMessage(error: unknown): ModalMessage {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return { title: 'Error', message, type: 'error' };
}
