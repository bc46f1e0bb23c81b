/**
 * The keyboard-shortcut overlay's trigger: `?` (Shift+/ on most layouts) anywhere in the main layout,
 * except while typing in a field or with Ctrl/Cmd/Alt held, opens it; Esc (or its close button) closes
 * it. The overlay itself is loaded on the first `?`.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { isEditable } from '../../lib/editable.js';

const ShortcutHelp = lazy(async () => ({ default: (await import('./ShortcutHelp.js')).ShortcutHelp }));

export function ShortcutHelpHost() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat || isEditable(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutHelp onClose={() => setOpen(false)} />
    </Suspense>
  );
}
