/** The shape of schemas/auth/<form>.json as the pages use it. */
export interface AuthFieldSpec {
  key: string;
  label: string;
  input: string; // 'email' | 'password' | 'code'
  autocomplete: string;
  checklist?: boolean;
}

export interface AuthFormFile {
  title: string;
  intro?: string;
  submit?: string;
  resend?: string;
  forgot_link?: string;
  fields: AuthFieldSpec[];
  /**
   * Values the page already knows (the reset link's username): kept in the form as hidden
   * inputs, so a password manager knows which account the new password is for.
   */
  known_fields?: Pick<AuthFieldSpec, 'key' | 'input' | 'autocomplete'>[];
  links?: { text: string; to: string }[];
  /** the rules; a field's "required" message is what an empty password with a checklist shows */
  schema?: { errorMessage?: { required?: Record<string, string> } };
}
