import { useEffect, useState } from 'react';
import { type Greeting, greetingFor, msUntilNextHour } from '../utils/greeting';

/** The greeting for the current hour, looked at again at every full hour (spec-platform.md §9). */
export function useGreeting(): Greeting {
  const [greeting, setGreeting] = useState(() => greetingFor(new Date()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(
        () => {
          setGreeting(greetingFor(new Date()));
          schedule();
        },
        msUntilNextHour(new Date()) + 1000,
      );
    };
    schedule();
    return () => clearTimeout(timer);
  }, []);
  return greeting;
}
