/**
 * A tooltip that costs nothing until it is needed. Mantine's Tooltip sets up its floating position and
 * its interaction hooks when it mounts, hidden or not; the app shell and the work list's toolbar carry
 * about twenty of them, and mounting them all just after the first cards made the longest task of
 * that moment about a third longer (lists with a tooltip per row pay the same per row). This one
 * draws its child alone, and on the first mouse hover mounts a Tooltip pointed at the child
 * (`target`): the same look, placement and delays, and no element added around the child, so the
 * child is never remounted under the pointer.
 *
 * Like Mantine's default, it opens on mouse (and pen) hover only, not on touch or focus. Props that a
 * wrapping target (`Menu.Target`, `Popover.Target`) hands its child are passed on to the child, its own
 * handlers called first.
 */
import { cloneElement, useEffect, useRef, useState, type HTMLAttributes, type PointerEvent, type ReactElement, type ReactNode, type Ref } from 'react';
import { Tooltip, type FloatingPosition } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';

type Handler = (...args: unknown[]) => void;

interface ChildProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  [prop: string]: unknown;
}

export interface HoverTipProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  label: ReactNode;
  children: ReactElement<ChildProps>;
  position?: FloatingPosition;
  withArrow?: boolean;
  /** ms before it shows (Mantine's `openDelay`). */
  openDelay?: number;
  closeDelay?: number;
  ref?: Ref<HTMLElement>;
}

/** The props a wrapper gave, with each handler the child has too called after the child's own. */
function passOn(child: ChildProps, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...given };
  for (const [key, value] of Object.entries(given)) {
    const own = child[key];
    if (/^on[A-Z]/.test(key) && typeof value === 'function' && typeof own === 'function') {
      out[key] = (...args: unknown[]) => {
        (own as Handler)(...args);
        (value as Handler)(...args);
      };
    }
  }
  return out;
}

const byMouse = (event: PointerEvent) => event.pointerType === 'mouse' || event.pointerType === 'pen';

export function HoverTip({ label, children, position, withArrow, openDelay = 0, closeDelay = 0, ref, ...given }: HoverTipProps) {
  const target = useRef<HTMLElement>(null);
  const [used, setUsed] = useState(false);
  const [opened, setOpened] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const childProps = children.props;
  const mergedRef = useMergedRef(target, childProps.ref, ref);
  useEffect(() => () => clearTimeout(timer.current), []);

  const openAfter = (open: boolean, delay: number) => {
    clearTimeout(timer.current);
    if (delay > 0) timer.current = setTimeout(() => setOpened(open), delay);
    else setOpened(open);
  };

  const child = cloneElement(children, {
    ...passOn(childProps, given as Record<string, unknown>),
    ref: mergedRef,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      childProps.onPointerEnter?.(event);
      given.onPointerEnter?.(event);
      if (!byMouse(event)) return;
      setUsed(true);
      openAfter(true, openDelay);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      childProps.onPointerLeave?.(event);
      given.onPointerLeave?.(event);
      openAfter(false, closeDelay);
    },
  });

  return (
    <>
      {child}
      {used && <Tooltip label={label} position={position} withArrow={withArrow} target={target} opened={opened} />}
    </>
  );
}
