import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { MAX_SEARCH_LENGTH } from '../../../workers/core/constants';
import type { ClinicalRecordType } from '../../../workers/core/types';
import { Icon } from '../../components/icon';
import { RECORD_TYPE_LABELS } from '../../components/record-type';

export type TypeFilter = ClinicalRecordType | '';

// Medical records only: access events are in the access history (docs/decisions/records-not-access-events.md).
const TYPE_OPTIONS: readonly ClinicalRecordType[] = ['prescription', 'test_report', 'diagnosis'];

interface RecordFiltersProps {
  search: string;
  searchProblem: string | null; // the worker's message for the search text, shown before any call
  type: TypeFilter;
  onSearch: (search: string) => void;
  onType: (type: TypeFilter) => void;
}

export function RecordFilters({ search, searchProblem, type, onSearch, onType }: RecordFiltersProps) {
  return (
    <div className="record-filters" role="search" aria-label="Filter records">
      <Form.Group className="record-filter-search" controlId="record-search">
        <Form.Label className="small fw-semibold">Search</Form.Label>
        <InputGroup>
          <InputGroup.Text aria-hidden="true">
            <Icon name="search" size={16} />
          </InputGroup.Text>
          <Form.Control
            type="search"
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            placeholder="Title, text, file name"
            autoComplete="off"
            maxLength={MAX_SEARCH_LENGTH}
            isInvalid={searchProblem !== null}
            aria-invalid={searchProblem !== null || undefined}
            aria-describedby={searchProblem ? 'record-search-problem' : undefined}
          />
        </InputGroup>
        {searchProblem ? (
          <div id="record-search-problem" className="invalid-feedback d-block">
            {searchProblem}
          </div>
        ) : null}
      </Form.Group>
      <Form.Group className="record-filter-type" controlId="record-type-filter">
        <Form.Label className="small fw-semibold">Type</Form.Label>
        <Form.Select value={type} onChange={(event) => onType(event.target.value as TypeFilter)}>
          <option value="">All types</option>
          {TYPE_OPTIONS.map((value) => (
            <option key={value} value={value}>
              {RECORD_TYPE_LABELS[value]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </div>
  );
}
