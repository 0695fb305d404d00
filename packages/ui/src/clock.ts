import { useEffect, useState } from 'preact/hooks';

/** The time now in ms, moving every `everyMs` so ages ("12 s ago") stay true. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
