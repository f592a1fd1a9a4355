import { describe, expect, it } from 'vitest';
import { EnglishFinder } from '../helpers/english-leaks.ts';

/**
 * The net the Spanish tests cast over pages, mails and the PDF copy: the schemas' English
 * phrases, however short, and English words no Spanish text uses, wherever they come from;
 * what the applicant typed and Spanish itself pass.
 */
describe('finding English in a Spanish page, mail or PDF', () => {
  const finder = new EnglishFinder('es', ['Central High School', 'English 12']);
  const found = (text: string) => finder.find(text, 'text').map((leak) => leak.english);

  it('finds a short text of the schemas left untranslated', () => {
    expect(found('Curso(s) en que lo recibió: 9th 10.º')).toEqual(['9th']);
    expect(found('¿Tiene un segundo apellido? Yes No')).toContain('Yes');
  });

  it('finds English written in code or by a library, by its words', () => {
    expect(found('Close')).toContain('close');
    expect(found('Application to Concordia Heights University')).toContain('application');
    expect(found('Admissions <no-reply@localhost>')).toContain('admissions');
  });

  it('lets Spanish, names, addresses and what the applicant typed pass', () => {
    expect(found('Solicitud a Concordia Heights University, 1200 College Avenue. Escriba a apply-help@concordiaheights.example.edu')).toEqual([]);
    expect(found('Busque su escuela: Central High School. Asignatura 1: English 12')).toEqual([]);
    expect(found('Sí No AP IB SAT ACT')).toEqual([]);
  });
});
