import { useState } from 'react';
import { cn } from '@/lib/cn';
import { EyeIcon, EyeOffIcon } from './icons';
import { Input, type InputProps } from './input';

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  /** What the secret is called in the toggle's name: "Show {secretName}". */
  secretName?: string;
}

/**
 * A password (or PIN) field with a show/hide toggle. The toggle's name is its text content,
 * not an aria-label, so looking the field up by its label finds only the input.
 */
export function PasswordInput({ className, secretName = 'password', disabled, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input type={visible ? 'text' : 'password'} className={cn('pr-11', className)} disabled={disabled} {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-controls={props.id}
        disabled={disabled}
        className={cn(
          'absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground',
          'hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50',
        )}
      >
        {visible ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
        <span className="sr-only">{visible ? `Hide ${secretName}` : `Show ${secretName}`}</span>
      </button>
    </div>
  );
}
