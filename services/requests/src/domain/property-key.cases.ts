/**
 * Address pairs and whether they name one property: the normalisation's table (issue 36), used by
 * its unit test and by the parser comparison in decision 017.
 */
export const SAME_PROPERTY: [string, string][] = [
  ['123 Main Street, Denver, CO 80202', '123 MAIN ST DENVER CO 80202'],
  ['123 Main Street, Denver, CO 80202', '123 Main St., Denver CO 80202-1234'],
  ['123 MAIN ST DENVER CO 80202', '123 Main St., Denver CO 80202-1234'],
  ['5 North Oak Avenue Apt 4, Austin, TX 78701', '5 N Oak Ave #4, Austin, TX 78701'],
  ['5 North Oak Avenue Apartment 4, Austin, TX 78701', '5 N Oak Ave Unit 4, Austin, TX 78701'],
  ['5 N Oak Ave Apt 4, Austin, TX 78701', '5 n. oak ave. apt. 4, austin, tx 78701'],
  ['8061 Twin St, Denver, CO 80202', '8061 TWIN ST, DENVER, CO 80202'],
  ['8061 Twin St, Denver, CO 80202', '  8061  Twin   Street ,  Denver , CO  80202 '],
  ['400 South Elm Boulevard, Boise, ID 83702', '400 S Elm Blvd, Boise, ID 83702'],
  ['77 West Lake Drive, Madison, WI 53703', '77 W Lake Dr, Madison, WI 53703'],
  ['9 East River Road, Tulsa, OK 74103', '9 E River Rd, Tulsa, OK 74103'],
  ['1500 Pine Lane Northwest, Seattle, WA 98101', '1500 Pine Ln NW, Seattle, WA 98101'],
  ['22 Harbor Court, Portland, ME 04101', '22 Harbor Ct, Portland, ME 04101-5555'],
  ['310 Maple Parkway, Columbus, OH 43215', '310 Maple Pkwy, Columbus, OH 43215'],
  ['18 Cedar Place Suite 200, Reno, NV 89501', '18 Cedar Pl Ste 200, Reno, NV 89501'],
  ['64 Birch Highway, Helena, MT 59601', '64 Birch Hwy, Helena, MT 59601'],
  ['101 Ocean Terrace, Miami, FL 33101', '101 Ocean Ter., Miami, FL 33101'],
  ['12 Elm Road, Salem, OR 97301', '12 Elm Rd, Salem, OR 97301'],
  ['3 Quail Circle #12, Mesa, AZ 85201', '3 Quail Cir Apt 12, Mesa, AZ 85201'],
];

export const DIFFERENT_PROPERTIES: [string, string][] = [
  ['5 North Oak Avenue Apt 4, Austin, TX 78701', '5 North Oak Avenue Apt 5, Austin, TX 78701'],
  ['5 N Oak Ave #4, Austin, TX 78701', '5 N Oak Ave, Austin, TX 78701'],
  ['12 Elm Rd, Salem, OR 97301', '12 Elm Rd, Salem, MA 01970'],
  ['123 Main St, Denver, CO 80202', '124 Main St, Denver, CO 80202'],
  ['123 Main St, Denver, CO 80202', '123 Main Ave, Denver, CO 80202'],
  ['123 Main St, Denver, CO 80202', '123 Main St, Denver, CO 80203'],
  ['9 East River Road, Tulsa, OK 74103', '9 West River Road, Tulsa, OK 74103'],
  ['9 E River Rd, Tulsa, OK 74103', '9 River Rd, Tulsa, OK 74103'],
  ['1500 Pine Ln NW, Seattle, WA 98101', '1500 Pine Ln NE, Seattle, WA 98101'],
  ['18 Cedar Pl Ste 200, Reno, NV 89501', '18 Cedar Pl Ste 201, Reno, NV 89501'],
  ['77 W Lake Dr, Madison, WI 53703', '77 W Lake Dr, Madison, AL 53703'],
  ['22 Harbor Ct, Portland, ME 04101', '22 Harbor Ct, Portland, OR 97201'],
  ['64 Birch Hwy, Helena, MT 59601', '64 Birch Hwy, Billings, MT 59601'],
];
