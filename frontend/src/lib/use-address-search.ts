import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue } from './use-debounced-value';

/**
 * A list's search kept in the address as `?q=`: `searchText` is what is typed (starting from
 * the address), `search` the trimmed text once typing has paused for `debounceMs`: what the
 * list asks the server for. The address follows `search` without a history entry per keystroke.
 */
export function useAddressSearch(debounceMs: number): {
  searchText: string;
  setSearchText: (text: string) => void;
  search: string;
} {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlSearch = searchParams.get('q') ?? '';
  const [searchText, setSearchText] = useState(urlSearch);
  const search = useDebouncedValue(searchText.trim(), debounceMs);

  useEffect(() => {
    if (search === urlSearch) return;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (search) next.set('q', search);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [search, urlSearch, setSearchParams]);

  return { searchText, setSearchText, search };
}
