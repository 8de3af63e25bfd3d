/**
 * The one given/when helper of every decider test: the state is the given events folded
 * with the decider's own evolve; `when(command)` is a thunk deciding the command on it
 * (call it for the events, or hand it to `expect(…).toThrow`).
 */
export interface Decider<State, Command, Event> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function deciderSpec<State, Command, Event>(decider: Decider<State, Command, Event>) {
  return (...events: Event[]) => {
    const state = events.reduce((folded, event) => decider.evolve(folded, event), decider.initialState);
    return { state, when: (command: Command) => () => decider.decide(command, state) };
  };
}
