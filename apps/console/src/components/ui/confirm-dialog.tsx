import { type ReactNode, useId } from 'react';
import { Button } from './button';
import { Modal } from './modal';

interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  /** What stops working or goes away, in the product's words. */
  children: ReactNode;
  confirmLabel: string;
  isBusy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action that cannot be undone, saying what it stops; Cancel and Escape keep things as they are. */
export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  isBusy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const consequencesId = useId();
  return (
    <Modal isOpen={isOpen} title={title} onClose={onCancel} descriptionId={consequencesId}>
      <div className="flex flex-col gap-4">
        <div id={consequencesId} className="flex flex-col gap-2 text-sm text-slate-700">
          {children}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" isLoading={isBusy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
