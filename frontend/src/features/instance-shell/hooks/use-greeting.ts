import { useEffect, useState } from 'react';
import { type Greeting, greetingFor, msUntilNextHour } from '../utils/greeting';

/** The greeting for the current hour in the shop's zone, looked at again at every full hour there. */
export function useGreeting(timeZone?: string): Greeting {
  const [greeting, setGreeting] = useState(() => greetingFor(new Date(), timeZone));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(
        () => {
          setGreeting(greetingFor(new Date(), timeZone));
          schedule();
        },
        msUntilNextHour(new Date(), timeZone) + 1000,
      );
    };
    setGreeting(greetingFor(new Date(), timeZone));
    schedule();
    return () => clearTimeout(timer);
  }, [timeZone]);
  return greeting;
}
