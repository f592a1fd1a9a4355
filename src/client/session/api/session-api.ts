import useSWR from 'swr';
import { callEndpoint, endpointUrl, type EndpointReply } from '../../lib/api-client.ts';
import { serviceTokenOf } from '../service-token.ts';

/**
 * What the session reads of the applicant (spec section 3): the profile, the add-another
 * counts and chosen tabs, the read-only service view; and the logout. Each read's SWR key
 * is its contract address, so the profile gate's preloaded data is what the hooks find.
 */
export type Profile = EndpointReply<'profile'>;
export type ServiceData = EndpointReply<'serviceView'>;
export type AddAnotherData = EndpointReply<'addAnother'>;
export type TabsData = EndpointReply<'tabs'>;

export const PROFILE_KEY = endpointUrl('profile');
export const ADD_ANOTHER_KEY = endpointUrl('addAnother');
export const TABS_KEY = endpointUrl('tabs');
/** the service view's key leaves out the token: one view per tab */
export const SERVICE_KEY = endpointUrl('serviceView');

export const fetchProfile = () => callEndpoint('profile');
export const fetchAddAnother = () => callEndpoint('addAnother');
export const fetchTabs = () => callEndpoint('tabs');
export const fetchServiceView = (serviceToken: string) => callEndpoint('serviceView', { query: { service_token: serviceToken } });

export function useProfileData(enabled: boolean): Profile | undefined {
  return useSWR(enabled ? PROFILE_KEY : null, fetchProfile).data;
}

export function useAddAnotherData(enabled: boolean): AddAnotherData | undefined {
  return useSWR(enabled ? ADD_ANOTHER_KEY : null, fetchAddAnother).data;
}

export function useTabsData(enabled: boolean): TabsData | undefined {
  return useSWR(enabled ? TABS_KEY : null, fetchTabs).data;
}

export function useServiceData(enabled: boolean): ServiceData | undefined {
  return useSWR(enabled ? SERVICE_KEY : null, () => fetchServiceView(serviceTokenOf() ?? '')).data;
}

/** Ends the session on the server (GET, as spec section 7 has it). */
export const endSessionOnServer = () => callEndpoint('logout');
