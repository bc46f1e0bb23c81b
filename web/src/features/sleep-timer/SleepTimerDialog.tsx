/**
 * The sleep timer dialog: clock mode (stop at a time of day; an earlier time
 * means tomorrow) and countdown mode (presets 0–120 minutes on a 0..10 slider, or any number of
 * minutes; 0 or less → '倒计时失败，时长不能小于0'). With the old sleep-timer look only the clock shows.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Slider, Stack, Text, TextInput } from '@mantine/core';
import { IconZzz } from '@tabler/icons-react';
import { t } from '../../i18n/index.js';
import { formatTimeOfDay } from '../../i18n/format.js';
import { notifySuccess, notifyWarning } from '../../lib/notify.js';
import { resetPref, setPref, usePref, type SleepTimer } from '../../lib/prefs.js';
import { clockStopAt, COUNTDOWN_PRESETS, countdownStopAt, DEFAULT_PRESET_INDEX, parseClock, presetMinutes, remainingText, stopClockText } from './sleep-time.js';
import { useNow } from './use-now.js';

const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

export function SleepTimerDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [timer] = usePref('sleepTimer');
  const [oldUi] = usePref('oldSleepTimerUi');
  const now = useNow(opened);
  const [mode, setMode] = useState<SleepTimer['mode']>('countdown');
  const [clock, setClock] = useState('');
  const [preset, setPreset] = useState(DEFAULT_PRESET_INDEX);
  const [minutes, setMinutes] = useState<number | string>(presetMinutes(DEFAULT_PRESET_INDEX));

  // Opening shows the running timer, or sensible defaults.
  useEffect(() => {
    if (!opened) return;
    setMode(oldUi ? 'clock' : (timer?.mode ?? 'countdown'));
    setClock(timer ? stopClockText(timer) : hhmm(new Date()));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on opening: typing must not be overwritten by the running timer
  }, [opened]);

  const apply = () => {
    let stopAt: number | null;
    if (mode === 'clock') {
      const parsed = parseClock(clock);
      if (!parsed) return notifyWarning(t.player.sleep.badClock);
      stopAt = clockStopAt(Date.now(), parsed.hour, parsed.minute);
    } else {
      stopAt = countdownStopAt(Date.now(), typeof minutes === 'number' ? minutes : Number(minutes));
      if (stopAt === null) return notifyWarning(t.player.sleep.countdownFailed);
    }
    setPref('sleepTimer', { mode, stopAt });
    notifySuccess(t.player.sleep.enabled);
    onClose();
  };

  const clear = () => {
    resetPref('sleepTimer');
    notifySuccess(t.player.sleep.disabled);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t.player.sleep.title} centered zIndex={310}>
      <Stack gap="md" data-testid="sleep-dialog">
        {timer && (
          <Alert variant="light" icon={<IconZzz size={18} />} data-testid="sleep-status">
            {t.player.sleep.status(formatTimeOfDay(timer.stopAt), remainingText(timer, now))}
          </Alert>
        )}
        {!oldUi && (
          <SegmentedControl
            fullWidth
            value={mode}
            onChange={(v) => setMode(v === 'clock' ? 'clock' : 'countdown')}
            data={[
              { value: 'countdown', label: t.player.sleep.countdownMode },
              { value: 'clock', label: t.player.sleep.clockMode },
            ]}
            data-testid="sleep-mode"
          />
        )}
        {mode === 'clock' ? (
          <TextInput type="time" label={t.player.sleep.clockLabel} description={t.player.sleep.clockHint} value={clock} onChange={(e) => setClock(e.currentTarget.value)} data-testid="sleep-clock" />
        ) : (
          <>
            <Slider
              min={0}
              max={COUNTDOWN_PRESETS.length - 1}
              step={1}
              value={preset}
              onChange={(i) => {
                setPreset(i);
                setMinutes(presetMinutes(i));
              }}
              label={(i) => t.player.sleep.minutes(presetMinutes(i))}
              marks={COUNTDOWN_PRESETS.map((m, i) => ({ value: i, label: i % 2 === 0 ? String(m) : undefined }))}
              mb="lg"
              data-testid="sleep-slider"
            />
            <NumberInput label={t.player.sleep.customMinutes} value={minutes} onChange={setMinutes} allowDecimal step={1} suffix={t.player.sleep.minutesSuffix} data-testid="sleep-minutes" />
          </>
        )}
        <Group justify="space-between">
          <Button variant="subtle" color="red" onClick={clear} disabled={!timer} data-testid="sleep-clear">
            {t.player.sleep.clear}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t.player.sleep.cancel}
            </Button>
            <Button onClick={apply} data-testid="sleep-set">
              {t.player.sleep.set}
            </Button>
          </Group>
        </Group>
        {!timer && (
          <Text size="xs" c="dimmed" ta="center">
            {t.player.sleep.off}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
