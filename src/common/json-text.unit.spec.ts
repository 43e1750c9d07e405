import { describe, expect, it } from 'vitest';
import { jsonTextProblem } from './json-text.js';

describe('jsonTextProblem › what JSON.parse hides in a body', () => {
  it.each([
    ['{"a":1,"a":2}', { field: 'a', message: 'is given more than once' }],
    ['{"a":1,"\\u0061":2}', { field: 'a', message: 'is given more than once' }],
    ['{"m":{"x":"\\"","x":1}}', { field: 'm.x', message: 'is given more than once' }],
    ['{"c":[{"k":1},{"k":1,"k":2}]}', { field: 'c[1].k', message: 'is given more than once' }],
    ['{"n":12345678901234567890}', { field: 'n', message: expect.stringMatching(/too large to keep exactly/) }],
    ['[1,{"a":[-9007199254740993]}]', { field: '[1].a[0]', message: expect.stringMatching(/too large/) }],
    ['9007199254740993', { field: '(body)', message: expect.stringMatching(/too large/) }],
  ])('%s → %j', (text, problem) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(jsonTextProblem(text)).toEqual(problem);
  });

  it.each([
    '{"a":1,"b":{"a":1},"c":[{"a":1},{"a":1}]}',
    '{"a\\\\":"}\\\\","a":"a\\"b"}'.replace('"a":"a', '"b":"a'),
    '{"x":{},"y":[{},[]],"z":"{\\"a\\":1,\\"a\\":2}"}',
    '{"n":9007199254740992,"m":-9007199254740992,"big":10000000000000000000000,"f":0.12345678901234567890,"e":1e300}',
    '  [ true , false , null , "a,b" , -0 ]  ',
  ])('%s → none', (text) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(jsonTextProblem(text)).toBeNull();
  });
});
