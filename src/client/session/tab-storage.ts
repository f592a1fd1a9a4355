/** sessionStorage, or a stand-in in tests: this tab's own storage, gone when it closes */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const tabStorage = (): TabStorage => sessionStorage;

/** localStorage: this browser's storage, shared by its tabs and kept when they close */
export const deviceStorage = (): Storage => localStorage;
